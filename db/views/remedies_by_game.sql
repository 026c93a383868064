-- Which remedies each game's laws give, for each situation: "in which games does the deal stand after an exposed card?"
select
  ls.situation_id as situation,
  l.game as game,
  r.remedy as remedy,
  count(distinct l.id) as laws,
  group_concat(l.id, ' ') as law_ids
from law_situations ls
join laws l on l.id = ls.law_id
join law_remedies r on r.law_id = l.id
where l.witness_of is null
group by ls.situation_id, l.game, r.remedy
order by ls.situation_id, l.game, r.remedy
