-- Issue 15: rule sets existing before "one default per shop" get one: each client's first active
-- rule set (else its first one) becomes the default the PDV uses when none is picked.
UPDATE "shipping_settings" s SET "is_default" = true
WHERE s."id" = (
  SELECT f."id" FROM "shipping_settings" f
  WHERE f."client_id" = s."client_id"
  ORDER BY f."active" DESC, f."id" ASC
  LIMIT 1
);
