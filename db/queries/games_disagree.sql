-- title = "Where do two games decide the same situation differently?"
-- description = "The situations both games' laws decide, with the remedies each game gives (all its books together), where the two lists differ."
-- [parameters]
-- first = "A game slug: whist, bridge, auction-bridge, ecarte, piquet, poker, euchre, loo, cribbage, skat …"
-- second = "Another game slug."
-- [example]
-- first = "whist"
-- second = "bridge"
with remedies as (
  select situation_id, game, group_concat(remedy, ', ') as remedies
  from (select distinct r.situation_id, l.game, r.remedy
        from law_remedies r join laws l on l.id = r.law_id
        where l.witness_of is null and l.game in (:first, :second)
        order by r.situation_id, l.game, r.remedy)
  group by situation_id, game
)
select
  s.label as situation,
  a.remedies as in_first_game,
  b.remedies as in_second_game,
  '/compare/' || s.id as compare
from remedies a
join remedies b on b.situation_id = a.situation_id
join situations s on s.id = a.situation_id
where a.game = :first and b.game = :second and a.remedies != b.remedies
order by s.rowid
