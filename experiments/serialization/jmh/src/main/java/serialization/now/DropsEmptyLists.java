package serialization.now;

import serialization.model.MediaContent;

/**
 * A deliberately lossy serializer for the tests: Java serialization whose reader turns an empty list into
 * none (null), as a format that writes no empty list and a reader that does not restore it would (2008's
 * Scala classes lost their lists another way). The four timed values have no empty list, so it passes them;
 * the sparse and empty values must catch it. Not in Catalog, never in experiment.toml.
 */
public class DropsEmptyLists extends Java {
    @Override
    protected MediaContent decode(byte[] bytes) throws Exception {
        MediaContent content = super.decode(bytes);
        if (content.images.isEmpty()) {
            content.images = null;
        }
        if (content.media.persons.isEmpty()) {
            content.media.persons = null;
        }
        return content;
    }
}
