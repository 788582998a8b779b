package serialization.now;

import serialization.bench.Touch;
import serialization.model.MediaContent;

/**
 * A deliberately lossy serializer for the tests (tests/test_serialization_jvm.py): Java serialization
 * that leaves out the media's copyright. Its check must fail on every value that has a copyright, so
 * that no lossy serializer can pass as a number. Not in Catalog, never in experiment.toml.
 */
public class DropsCopyright extends Java {
    @Override
    protected byte[] encode(MediaContent object) throws Exception {
        MediaContent copy = Touch.copy(object);
        copy.media.copyright = null;
        return super.encode(copy);
    }
}
