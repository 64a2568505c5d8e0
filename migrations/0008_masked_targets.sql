-- Callback targets as people may see them (issue 10): the user name and password, query and
-- fragment of a URL, where credentials usually live, become ***. New deliveries store their
-- target masked already (the full URL stays in the payload only the sender reads); this masks
-- the ones stored before, so the API, the console, the CLI and the support views never show it.
UPDATE deliveries
SET target = regexp_replace(
        regexp_replace(
            regexp_replace(target, '#.*$', '#***'),
            '\?[^#]*', '?***'),
        '^([A-Za-z][A-Za-z0-9+.-]*://)[^/?#]*@', '\1***@')
WHERE channel = 'webhook' AND target ~ '(://[^/?#]*@|\?|#)';
