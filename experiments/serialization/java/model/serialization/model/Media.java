package serialization.model;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/** The media of a {@link MediaContent}: the plain Java object. A null field is unset; persons is never null. */
public final class Media implements Serializable {
    private static final long serialVersionUID = 1L;

    public enum Player { JAVA, FLASH }

    public String uri;
    public String title;
    public Integer width;
    public Integer height;
    public String format;
    public Long duration;
    public Long size;
    public Integer bitrate;
    public List<String> persons;
    public Player player;
    public String copyright;

    /** The default constructor sets no field (the 2008 post's "plain object"); libraries that bind fields use it. */
    public Media() {
    }

    public Media(String uri, String title, Integer width, Integer height, String format, Long duration, Long size,
                 Integer bitrate, List<String> persons, Player player, String copyright) {
        this.uri = uri;
        this.title = title;
        this.width = width;
        this.height = height;
        this.format = format;
        this.duration = duration;
        this.size = size;
        this.bitrate = bitrate;
        this.persons = persons;
        this.player = player;
        this.copyright = copyright;
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof Media)) {
            return false;
        }
        Media o = (Media) other;
        return Objects.equals(uri, o.uri) && Objects.equals(title, o.title) && Objects.equals(width, o.width)
                && Objects.equals(height, o.height) && Objects.equals(format, o.format)
                && Objects.equals(duration, o.duration) && Objects.equals(size, o.size)
                && Objects.equals(bitrate, o.bitrate) && Objects.equals(persons, o.persons) && player == o.player
                && Objects.equals(copyright, o.copyright);
    }

    @Override
    public int hashCode() {
        return Objects.hash(uri, title, width, height, format, duration, size, bitrate, persons, player, copyright);
    }

    @Override
    public String toString() {
        return "Media{uri=" + uri + ", title=" + title + ", width=" + width + ", height=" + height + ", format=" + format
                + ", duration=" + duration + ", size=" + size + ", bitrate=" + bitrate + ", persons=" + persons
                + ", player=" + player + ", copyright=" + copyright + "}";
    }
}
