-- title = "Which codes say nothing about a situation?"
-- description = "The codes of laws in the law books that neither decide nor touch the situation: where a game's law is silent (the silence may be the book's, or the game may not know the situation at all)."
-- [parameters]
-- situation = "A situation id, as in /compare: revoke, misdeal, bystanders, new-pack, playing-alone …"
-- [example]
-- situation = "revoke"
select
  g.name as game,
  c.title as code,
  coalesce(c.year, s.year) as year,
  s.title as book,
  (select count(*) from laws l where l.code = c.id and l.parent is null) as laws,
  '/law/' || c.id as code_page
from codes c
join sources s on s.slug = c.source
join games g on g.slug = c.game
where c.kind = 'law' and s.kind = 'laws'
  and not exists (select 1 from law_situations ls join laws l on l.id = ls.law_id
                  where l.code = c.id and ls.situation_id = :situation)
order by g.name, coalesce(c.year, s.year)
