-- Placeholder on the undo branch only, so 0019 applies in its tests: the number is reserved for
-- another branch (issue #39/#40). DELETE THIS FILE when merging that branch's real migration.
SELECT 1;
