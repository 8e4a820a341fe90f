-- Which posts show an upload: upkeep's orphan query asks it of every old upload, and deleting
-- an upload checks the foreign key from post_images. Without an index each was a scan of
-- post_images, and on a network with many images upkeep's first round never ended.
CREATE INDEX post_images_media_idx ON post_images (media_id);
