-- title = "Which laws of one game have a close counterpart in another?"
-- description = "Pairs of laws, one of each game, that say nearly the same thing (each law's nearest laws by meaning, from sentence vectors; score 1 is the same meaning), closest first."
-- [parameters]
-- first = "A game slug: ecarte, piquet, whist, bridge, poker, euchre, loo …"
-- second = "Another game slug."
-- [example]
-- first = "poker"
-- second = "loo"
select
  round(p.score, 3) as score,
  coalesce(a.citation, a.number) as first_law,
  substr(a.text, 1, 140) as first_says,
  coalesce(b.citation, b.number) as second_law,
  substr(b.text, 1, 140) as second_says,
  '/law/' || a.id as page
from parallels p
join laws a on a.id = p.law_id
join laws b on b.id = p.other_id
where a.game = :first and b.game = :second and a.witness_of is null and b.witness_of is null
order by p.score desc
limit 100
