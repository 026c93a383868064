-- title = "What does law N of a game say in each book?"
-- description = "The law of that number in every code of the game, oldest first: how one number's law differs between codes (the numbers are each code's own, so the same number may be another law)."
-- [parameters]
-- game = "A game slug: whist, ecarte, poker, bridge, euchre, loo …"
-- number = "A law's number as printed: 1, 31, 12a, ix …"
-- [example]
-- game = "whist"
-- number = "1"
select
  coalesce(c.year, s.year) as year,
  c.title as code,
  s.title as book,
  coalesce(l.citation, l.number) as citation,
  l.text,
  '/law/' || l.id as page
from laws l
join codes c on c.id = l.code
join sources s on s.slug = l.source
where l.game = :game and lower(l.number) = lower(:number) and l.parent is null and l.witness_of is null
order by coalesce(c.year, s.year) is null, coalesce(c.year, s.year), c.id
