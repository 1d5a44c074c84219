-- pgstore schema, version 2: recovery points and response headers are stored as bytes.
--
-- jsonb refuses \u0000 (a step result holding one could not be recorded, so every retry ran the
-- step again) and JSON cannot hold header values that are not UTF-8. Both columns become bytea
-- holding a list of (name, value) pairs, each preceded by its length as a 4-byte big-endian
-- integer (int4send(octet_length(x)) || x; see internal/pairs). steps is appended to, one pair per
-- recorded step (a later pair of the same name replaces an earlier one); header holds one pair
-- per header value. The columns keep their names but change type, so that a binary of version 1
-- fails loudly instead of reading or writing the old encoding.

ALTER TABLE idempotency_keys
    ADD COLUMN steps_v2  bytea NOT NULL DEFAULT ''::bytea,
    ADD COLUMN header_v2 bytea;

UPDATE idempotency_keys k SET
    steps_v2 = coalesce((
        SELECT string_agg(int4send(octet_length(convert_to(s.name, 'UTF8'))) || convert_to(s.name, 'UTF8')
                       || int4send(octet_length(convert_to(s.result::text, 'UTF8'))) || convert_to(s.result::text, 'UTF8'),
                          ''::bytea ORDER BY s.name)
        FROM jsonb_each(k.steps) AS s(name, result)), ''::bytea),
    header_v2 = (
        SELECT string_agg(int4send(octet_length(convert_to(h.name, 'UTF8'))) || convert_to(h.name, 'UTF8')
                       || int4send(octet_length(convert_to(v.value, 'UTF8'))) || convert_to(v.value, 'UTF8'),
                          ''::bytea ORDER BY h.name, v.n)
        FROM jsonb_each(k.header) AS h(name, vals), jsonb_array_elements_text(h.vals) WITH ORDINALITY AS v(value, n))
WHERE k.steps <> '{}'::jsonb OR k.header IS NOT NULL;

ALTER TABLE idempotency_keys DROP COLUMN steps, DROP COLUMN header;
ALTER TABLE idempotency_keys RENAME COLUMN steps_v2 TO steps;
ALTER TABLE idempotency_keys RENAME COLUMN header_v2 TO header;
