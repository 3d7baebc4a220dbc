CREATE TABLE "post_tombstones" (
	"post_id" uuid PRIMARY KEY NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "post_tombstones_deleted_at_idx" ON "post_tombstones" USING btree ("deleted_at");--> statement-breakpoint
CREATE INDEX "publications_position_idx" ON "publications" USING btree ("longitude","latitude");