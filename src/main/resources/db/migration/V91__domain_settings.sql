-- Per-domain settings (issue 26): domain_redirect now holds a row per domain, keyed '' for the default domain (as
-- before) and by host (lower-case punycode, as in `domains`) for the others, and each row may name the redirect
-- status a create on that domain gets when it names none. Additive and online: a NULL status means 302 (as
-- before), and a pod of the previous build reads and writes the default domain's row exactly as it did.
ALTER TABLE domain_redirect ADD COLUMN default_redirect_status SMALLINT NULL;
