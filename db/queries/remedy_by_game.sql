-- title = "In which games does a situation give a remedy?"
-- description = "For instance: in which games does a card exposed in dealing give a new deal? One row a game and code, oldest code first, with the laws that say so. Laws that only touch the situation are not counted; an excerpt's copy of a book's law is counted once, as the book's."
-- [parameters]
-- situation = "A situation id, as in /compare: exposed-card-in-dealing, faced-card-in-pack, misdeal, revoke, deal-out-of-turn, wrong-number-of-cards …"
-- remedy = "A remedy: new-deal, deal-stands, lose-deal, card-called, suit-called, forfeit, barred, correction, adversary-option, no-penalty."
-- [example]
-- situation = "exposed-card-in-dealing"
-- remedy = "new-deal"
select
  g.name as game,
  c.title as code,
  coalesce(c.year, s.year) as year,
  s.title as book,
  count(distinct l.id) as laws,
  group_concat(coalesce(l.citation, l.number), '; ') as citations,
  '/law/' || min(l.id) as page
from law_remedies r
join laws l on l.id = r.law_id
join codes c on c.id = l.code
join sources s on s.slug = l.source
join games g on g.slug = l.game
where r.situation_id = :situation and r.remedy = :remedy and l.witness_of is null
group by l.game, l.code
order by g.name, coalesce(c.year, s.year), c.id
