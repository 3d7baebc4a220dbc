ALTER TABLE "pulse_purchases" ADD COLUMN "credits_spent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Credits spent before this column existed: each member's credited total minus their balance, charged to their purchases oldest first.
WITH "owned" AS (
	SELECT "p"."id",
		"p"."quantity" - "p"."credits_removed" AS "left_over",
		coalesce(sum("p"."quantity" - "p"."credits_removed") OVER (PARTITION BY "p"."user_id" ORDER BY "p"."paid_at", "p"."created_at", "p"."id" ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS "before",
		greatest(sum("p"."quantity" - "p"."credits_removed") OVER (PARTITION BY "p"."user_id") - "pr"."pulse_credits", 0) AS "spent"
	FROM "pulse_purchases" "p" JOIN "profiles" "pr" ON "pr"."id" = "p"."user_id"
	WHERE "p"."status" IN ('paid', 'refunded', 'disputed')
)
UPDATE "pulse_purchases" SET "credits_spent" = least("owned"."left_over", greatest("owned"."spent" - "owned"."before", 0))
FROM "owned" WHERE "pulse_purchases"."id" = "owned"."id";--> statement-breakpoint
ALTER TABLE "pulse_purchases" ADD CONSTRAINT "pulse_purchases_credits" CHECK ("pulse_purchases"."credits_spent" + "pulse_purchases"."credits_removed" <= "pulse_purchases"."quantity");--> statement-breakpoint
-- Analytics keep the hour, a route template, and only the sign-ups, logins, posts and messages the server saw.
DELETE FROM "analytics_events" WHERE "name" IN ('signup', 'login', 'post_created', 'message_sent');--> statement-breakpoint
UPDATE "analytics_events" SET "created_at" = date_trunc('hour', "created_at"),
	"path" = CASE
		WHEN "path" IS NULL THEN NULL
		WHEN "path" ~ '^/user/[^/]+/?$' THEN '/user/:id'
		WHEN "path" IN ('/', '/profile', '/create', '/messages', '/admin', '/appeal', '/reset-password', '/pulse/retour') THEN "path"
		ELSE '/*'
	END;
