-- One row per game: its sources, laws, clauses and entity mentions.
select
  g.slug as game,
  g.name as name,
  count(distinct l.source) as sources,
  sum(l.kind = 'law') as laws,
  sum(l.kind = 'clause') as clauses,
  (select count(*) from law_entities le join laws l2 on l2.id = le.law_id where l2.game = g.slug) as mentions
from games g
left join laws l on l.game = g.slug
group by g.slug
order by g.slug
