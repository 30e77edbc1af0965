-- API keys limited to one short domain (issue 26; Shlink's DOMAIN_SPECIFIC role): the id of the domain such a key
-- sees and changes (0 is the default domain), NULL for a key that sees every domain. Adding a nullable column at
-- the end of a small table is an instant, metadata-only change on MariaDB: pods running the previous build keep
-- reading and writing api_key while it runs, and every existing key stays unlimited.
ALTER TABLE api_key ADD COLUMN domain_id INT NULL;
