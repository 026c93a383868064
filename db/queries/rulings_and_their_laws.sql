-- title = "The decided cases and the laws they apply"
-- description = "Each ruling (Cavendish's Cases and Decisions on Piquet, and the rulings in corpus/rulings) with each law it cites, the citation as the ruling wrote it, and the law's opening words. Give a word to keep only rulings whose text has it, or nothing for all."
-- [parameters]
-- word = "A word or phrase in the ruling's text (case-insensitive), e.g. carte blanche, repique, discard; or nothing for every ruling."
-- [example]
-- word = "discard"
select
  r.title as ruling,
  substr(coalesce(nullif(r.decision, ''), r.text), 1, 200) as decision,
  rc.text as cited_as,
  coalesce(l.citation, l.number) as law,
  substr(l.text, 1, 140) as law_says,
  '/law/' || l.id as page
from rulings r
join ruling_citations rc on rc.ruling_id = r.id
left join laws l on l.id = rc.law_id
where :word = '' or instr(lower(r.text), lower(:word)) > 0
order by r.source, r.line_start, rc.start
