-- Reserved: number 0017 belongs to the notifications branch (issue #39). This file only
-- keeps the numbering without a gap on the tournaments branch; delete it when 0017 of
-- issue #39 is merged (bundled_migrations refuses two migrations of one number).
SELECT 1;
