-- title = "Which codes changed their remedy for a situation from the code before them?"
-- description = "For instance: which codes changed their revoke penalty between editions? Within each family of games (whist, bridge, piquet …), the law books' codes that decide the situation, in date order; a row wherever a code's remedies differ from those of the family's code before it, with a link comparing the two codes law by law."
-- [parameters]
-- situation = "A situation id, as in /compare: revoke, misdeal, exposed-card-in-dealing, lead-out-of-turn …"
-- [example]
-- situation = "revoke"
with per_code as (
  select
    c.id as code, c.family, c.title, coalesce(c.year, s.year) as year,
    (select group_concat(remedy, ', ') from (
       select distinct r.remedy from law_remedies r join laws l2 on l2.id = r.law_id
       where l2.code = c.id and r.situation_id = :situation order by r.remedy)) as remedies
  from codes c
  join sources s on s.slug = c.source
  where c.kind = 'law' and s.kind = 'laws'
    and exists (select 1 from law_situations ls join laws l on l.id = ls.law_id
                where l.code = c.id and ls.situation_id = :situation and ls.grade = 'decides')
),
ordered as (
  select *,
    lag(code) over w as before_code, lag(title) over w as before_title,
    lag(year) over w as before_year, lag(remedies) over w as before_remedies
  from per_code
  window w as (partition by family order by year is null, year, code)
)
select
  family,
  before_title || case when before_year is null or instr(before_title, before_year) then ''
                       else ' (' || before_year || ')' end as earlier_code,
  coalesce(before_remedies, 'none named') as earlier_remedies,
  title || case when year is null or instr(title, year) then '' else ' (' || year || ')' end as later_code,
  coalesce(remedies, 'none named') as later_remedies,
  '/compare/codes?a=' || before_code || '&b=' || code as compare
from ordered
where before_code is not null and coalesce(remedies, '') != coalesce(before_remedies, '')
order by family, year
