-- Where a visit was sent when a redirect rule or a split chose the target (Shlink's visit redirectUrl), before the
-- forwarded query string; NULL when the link's own URL was used, so links without rules write nothing more.
ALTER TABLE visit ADD COLUMN redirect_url VARCHAR(4096) NULL;
