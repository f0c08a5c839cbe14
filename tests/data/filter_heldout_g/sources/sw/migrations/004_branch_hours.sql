-- 004: opening hours per branch, and the closed days the due-date rule skips
BEGIN;
CREATE TABLE branch_hours (
    branch TEXT NOT NULL REFERENCES branches(code),
    weekday INTEGER NOT NULL CHECK (weekday BETWEEN 0 AND 6),
    opens TEXT NOT NULL,
    closes TEXT NOT NULL,
    PRIMARY KEY (branch, weekday)
);
INSERT INTO branch_hours SELECT code, 0, '09:00', '18:00' FROM branches;
INSERT INTO branch_hours SELECT code, 5, '10:00', '14:00' FROM branches;
UPDATE loans SET due_date = date(due_date, '+1 day') WHERE strftime('%w', due_date) = '0';
CREATE INDEX idx_loans_due ON loans(due);
COMMIT;
