-- title = "The codes of a family of games in date order: how long each is and what it decides"
-- description = "Every code of laws, oldest first, with who issued it, how many laws and clauses it has and how many situations its laws decide. Leave the family empty for every game."
-- [parameters]
-- family = "A family of games (whist, bridge, piquet, all-fours, or a game's own slug such as ecarte or poker), or nothing for all."
-- [example]
-- family = "whist"
select
  coalesce(c.year, s.year) as year,
  g.name as game,
  c.title as code,
  c.authority,
  c.edition,
  s.title as book,
  (select count(*) from laws l where l.code = c.id and l.parent is null) as laws,
  (select count(*) from laws l where l.code = c.id and l.parent is not null) as clauses,
  (select count(distinct ls.situation_id) from law_situations ls join laws l on l.id = ls.law_id
   where l.code = c.id and ls.grade = 'decides') as situations_decided,
  '/law/' || c.id as code_page
from codes c
join sources s on s.slug = c.source
join games g on g.slug = c.game
where (:family = '' or c.family = :family) and s.kind = 'laws'
order by coalesce(c.year, s.year) is null, coalesce(c.year, s.year), g.name
