-- The changes poll's exact cursor (issue 15, posts/feed.ts): each post and tombstone records the
-- transaction that wrote it, and a cursor holds the snapshot of the statement that answered, so
-- the next poll sends exactly the rows that snapshot could not see: nothing twice, and a
-- transaction that commits late with an earlier created_at is still caught (no time overlap).
-- Rows written before this migration keep null: every cursor's snapshot already sees them.
ALTER TABLE "publications" ADD COLUMN "created_xid" xid8;--> statement-breakpoint
ALTER TABLE "publications" ALTER COLUMN "created_xid" SET DEFAULT pg_current_xact_id();--> statement-breakpoint
CREATE INDEX "publications_created_xid_idx" ON "publications" USING btree ("created_xid");--> statement-breakpoint
ALTER TABLE "post_tombstones" ADD COLUMN "deleted_xid" xid8;--> statement-breakpoint
ALTER TABLE "post_tombstones" ALTER COLUMN "deleted_xid" SET DEFAULT pg_current_xact_id();--> statement-breakpoint
CREATE INDEX "post_tombstones_deleted_xid_idx" ON "post_tombstones" USING btree ("deleted_xid");
