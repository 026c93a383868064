-- How many laws of each game mention each entity: the cross-game view of the taxonomy.
select
  e.id as entity,
  e.label as entity_label,
  e.kind as entity_kind,
  l.game as game,
  g.name as game_name,
  count(distinct l.id) as laws,
  count(*) as mentions
from law_entities le
join entities e on e.id = le.entity_id
join laws l on l.id = le.law_id
join games g on g.slug = l.game
group by e.id, l.game
order by e.id, l.game
