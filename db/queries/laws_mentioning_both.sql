-- title = "Which laws mention both of two things?"
-- description = "For instance: which laws mention both the elder hand and the stock? Every law (of every game and book) whose words name both entities of the card-law vocabulary, by game and code date."
-- [parameters]
-- first = "An entity id: dealer, non_dealer, elder_hand, younger_hand, stock, trump_card, pack, cut, discard, exposed_card, misdeal, new_deal, revoke, trick, partner, adversary, stake …"
-- second = "Another entity id, from the same list."
-- [example]
-- first = "elder_hand"
-- second = "stock"
select
  g.name as game,
  coalesce(l.citation, l.number) as citation,
  c.title as code,
  coalesce(c.year, s.year) as year,
  l.text,
  '/law/' || l.id as page
from laws l
join games g on g.slug = l.game
join codes c on c.id = l.code
join sources s on s.slug = l.source
where l.witness_of is null
  and exists (select 1 from law_entities a where a.law_id = l.id and a.entity_id = :first)
  and exists (select 1 from law_entities b where b.law_id = l.id and b.entity_id = :second)
order by g.name, coalesce(c.year, s.year), l.ordinal
