package serialization.model;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * The object of thrift-protobuf-compare (2008): a Media and its Images, as plain Java objects with public
 * fields. Field names are those of experiments/serialization/data/*.json (persons, images), so JSON, msgpack
 * and CBOR bindings of this class produce the same maps as those files. A null field is unset.
 */
public final class MediaContent implements Serializable {
    private static final long serialVersionUID = 1L;

    public Media media;
    public List<Image> images;

    public MediaContent() {
    }

    public MediaContent(Media media, List<Image> images) {
        this.media = media;
        this.images = images;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof MediaContent && Objects.equals(media, ((MediaContent) other).media)
                && Objects.equals(images, ((MediaContent) other).images);
    }

    @Override
    public int hashCode() {
        return Objects.hash(media, images);
    }

    @Override
    public String toString() {
        return "MediaContent{media=" + media + ", images=" + images + "}";
    }
}
