-- Which remedies each game's laws give, for each situation they decide: "in which games does the
-- deal stand after an exposed card?"
select
  r.situation_id as situation,
  l.game as game,
  r.remedy as remedy,
  count(distinct l.id) as laws,
  group_concat(l.id, ' ') as law_ids
from law_remedies r
join laws l on l.id = r.law_id
where l.witness_of is null
group by r.situation_id, l.game, r.remedy
order by r.situation_id, l.game, r.remedy
