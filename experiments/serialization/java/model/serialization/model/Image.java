package serialization.model;

import java.io.Serializable;
import java.util.Objects;

/** An image of a {@link MediaContent}: the plain Java object. A null field is unset. */
public final class Image implements Serializable {
    private static final long serialVersionUID = 1L;

    public enum Size { SMALL, LARGE }

    public String uri;
    public String title;
    public Integer width;
    public Integer height;
    public Size size;

    /** The default constructor sets no field (the 2008 post's "plain object"); libraries that bind fields use it. */
    public Image() {
    }

    public Image(String uri, String title, Integer width, Integer height, Size size) {
        this.uri = uri;
        this.title = title;
        this.width = width;
        this.height = height;
        this.size = size;
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof Image)) {
            return false;
        }
        Image o = (Image) other;
        return Objects.equals(uri, o.uri) && Objects.equals(title, o.title) && Objects.equals(width, o.width)
                && Objects.equals(height, o.height) && size == o.size;
    }

    @Override
    public int hashCode() {
        return Objects.hash(uri, title, width, height, size);
    }

    @Override
    public String toString() {
        return "Image{uri=" + uri + ", title=" + title + ", width=" + width + ", height=" + height + ", size=" + size + "}";
    }
}
