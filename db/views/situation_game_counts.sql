-- How many laws of each game decide each situation (laws of excerpts counted once, as their book's);
-- laws that only touch a situation are not counted.
select
  s.id as situation,
  s.label as situation_label,
  l.game as game,
  g.name as game_name,
  count(*) as laws
from law_situations ls
join situations s on s.id = ls.situation_id
join laws l on l.id = ls.law_id
join games g on g.slug = l.game
where l.witness_of is null and ls.grade = 'decides'
group by s.id, l.game
order by s.id, l.game
