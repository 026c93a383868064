-- title = "Which laws are cited most, by other laws and by decided cases?"
-- description = "Laws that other laws refer to ('as in Law 12') and that the rulings cite, most cited first. Leave the game empty for every game."
-- [parameters]
-- game = "A game slug (piquet, whist, bridge …), or nothing for every game."
-- [example]
-- game = "piquet"
select
  g.name as game,
  coalesce(l.citation, l.number) as citation,
  (select count(*) from cross_references x where x.target_id = l.id) as cited_by_laws,
  (select count(*) from ruling_citations rc where rc.law_id = l.id) as cited_by_rulings,
  substr(l.text, 1, 160) as opening,
  '/law/' || l.id as page
from laws l
join games g on g.slug = l.game
where (:game = '' or l.game = :game)
  and (exists (select 1 from cross_references x where x.target_id = l.id)
       or exists (select 1 from ruling_citations rc where rc.law_id = l.id))
order by cited_by_laws + cited_by_rulings desc, l.ordinal
limit 100
