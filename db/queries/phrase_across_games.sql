-- title = "Where do the books use a word or phrase?"
-- description = "Every law whose text or note contains the words (full-text search: stemmed, so 'deal' finds 'dealt' and 'dealing'; put a phrase in double quotes, join words with AND, OR, NOT), by game and code date, with the words marked."
-- [parameters]
-- words = "Words to find, in SQLite FTS5 syntax: fresh deal, \"fresh deal\", honours NOT trumps …"
-- [example]
-- words = "\"fresh deal\""
select
  g.name as game,
  coalesce(l.citation, l.number) as citation,
  coalesce(c.year, s.year) as year,
  snippet(laws_fts, 0, '[', ']', '…', 16) as words,
  '/law/' || l.id as page
from laws_fts
join laws l on l.rowid = laws_fts.rowid
join codes c on c.id = l.code
join sources s on s.slug = l.source
join games g on g.slug = l.game
where laws_fts match '{text note} : (' || (case when trim(:words) = '' then 'cardlaws_nothing_asked' else :words end) || ')'
  and l.witness_of is null
order by g.name, coalesce(c.year, s.year), l.ordinal
