package serializers.java;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/** 2008's plain Java media in the shape Java serialization sees (see {@link Image}). */
public class Media implements Serializable {
    private static final long serialVersionUID = 1L;

    public enum Player { JAVA, FLASH }

    Player _player;
    String _uri;
    String _title;
    int _width;
    int _height;
    String _format;
    long _duration;
    long _size;
    int bitrate;
    List<String> _persons;
    String _copyright;

    Media(serialization.model.Media value) {
        _player = value.player == null ? null : Player.valueOf(value.player.name());
        _uri = MediaContent.text(value.uri);
        _title = MediaContent.text(value.title);
        _width = value.width == null ? 0 : value.width;
        _height = value.height == null ? 0 : value.height;
        _format = MediaContent.text(value.format);
        _duration = value.duration == null ? 0 : value.duration;
        _size = value.size == null ? 0 : value.size;
        bitrate = value.bitrate == null ? 0 : value.bitrate;
        if (!value.persons.isEmpty()) {
            _persons = MediaContent.texts(value.persons); // 2008 made the list on the first addToPerson
        }
        _copyright = MediaContent.text(value.copyright);
    }
}
