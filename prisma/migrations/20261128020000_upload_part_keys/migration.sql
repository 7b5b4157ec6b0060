-- Each sending of a resumable upload's part is kept under a key of its own, which its row names: a
-- part sent again, or while its upload was completed or abandoned, can no longer overwrite what a
-- join reads or outlive its upload. Parts sent before keep their key, uploads/<upload>/<number>.
ALTER TABLE attachment_upload_parts ADD COLUMN key text;
