-- title = "Which games' laws speak of a thing, and how often?"
-- description = "For one entity of the card-law vocabulary, each game: how many of its laws mention it, in how many codes, and the words the books use for it."
-- [parameters]
-- entity = "An entity id: stock, elder_hand, younger_hand, trump_card, exposed_card, revoke, misdeal, new_deal, called_card, foul_hand, stake …"
-- [example]
-- entity = "stock"
select
  g.name as game,
  count(distinct l.id) as laws,
  count(distinct l.code) as codes,
  group_concat(distinct lower(le.text)) as words,
  '/cardlaws/laws?game=' || l.game || '&entities__arraycontains=' || :entity as laws_table
from law_entities le
join laws l on l.id = le.law_id
join games g on g.slug = l.game
where le.entity_id = :entity and l.witness_of is null
group by l.game
order by laws desc, g.name
