package serializers.java;

import java.io.Serializable;

/**
 * 2008's plain Java image in the shape Java serialization sees (what decides its bytes): this package and
 * class name, these field names and types (primitive int: unset = 0), serialVersionUID 1. Only for
 * serialization.faults.Faults2008's size table, which reproduces 2008's 917 bytes with it.
 */
public class Image implements Serializable {
    private static final long serialVersionUID = 1L;

    public enum Size { SMALL, LARGE }

    String _uri;
    String _title;
    int _width;
    int _height;
    Size size;

    Image(serialization.model.Image value) {
        _uri = MediaContent.text(value.uri);
        _title = MediaContent.text(value.title);
        _width = value.width == null ? 0 : value.width;
        _height = value.height == null ? 0 : value.height;
        size = value.size == null ? null : Size.valueOf(value.size.name());
    }
}
