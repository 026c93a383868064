-- title = "How did the rule on a situation change over time?"
-- description = "Every law that decides the situation, in every game, oldest code first (the year its code was adopted, else its book's), with the remedies it gives and the words that show it."
-- [parameters]
-- situation = "A situation id, as in /compare: misdeal, revoke, pack-not-cut, deal-out-of-turn, exposed-card-in-play, bystanders …"
-- [example]
-- situation = "misdeal"
select
  coalesce(c.year, s.year) as year,
  g.name as game,
  coalesce(l.citation, l.number) as citation,
  c.title as code,
  (select group_concat(r.remedy, ', ') from law_remedies r
   where r.law_id = l.id and r.situation_id = :situation) as remedies,
  ls.evidence as says,
  '/law/' || l.id as page
from law_situations ls
join laws l on l.id = ls.law_id
join codes c on c.id = l.code
join sources s on s.slug = l.source
join games g on g.slug = l.game
where ls.situation_id = :situation and ls.grade = 'decides' and l.witness_of is null
order by coalesce(c.year, s.year) is null, coalesce(c.year, s.year), g.name, l.ordinal
