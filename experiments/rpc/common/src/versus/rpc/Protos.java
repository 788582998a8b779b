package versus.rpc;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import serialization.model.Image;
import serialization.model.Media;
import serialization.model.MediaContent;
import serialization.model.Values;
import serialization.protobuf.MediaProtos;

/**
 * The serialization experiment's values as messages of its media.proto. This one source compiles against
 * protobuf-java 2.5.0 (the 2008 project) and 4.x (today's): the builder API it uses did not change.
 */
public final class Protos {
    private Protos() {
    }

    /** The value the experiment's `dataset` parameter names (2008, standard, unicode, large). */
    public static MediaContent value() {
        if (System.getProperty("serialization.data") == null) {
            Path data = besideJar();
            if (data != null) {
                System.setProperty("serialization.data", data.toString());
            }
        }
        return Values.named(versus.Helper.param("dataset", "2008"));
    }

    /**
     * experiments/serialization/data found from this jar's place (experiments/rpc/jvm-*&#47;target/program.jar),
     * so that a client or server started in another folder (a test's) reads the same values; null if not found.
     */
    static Path besideJar() {
        try {
            Path at = Paths.get(Protos.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (; at != null; at = at.getParent()) {
                Path data = at.resolve("serialization").resolve("data");
                if (Files.isRegularFile(data.resolve("media-2008.json"))) {
                    return data;
                }
            }
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            return null;
        }
        return null;
    }

    /** A freshly built message of the value, as the 2008 code built one per call. */
    public static MediaProtos.MediaContent message(MediaContent value) {
        MediaProtos.MediaContent.Builder content = MediaProtos.MediaContent.newBuilder();
        for (Image image : value.images) {
            MediaProtos.Image.Builder out = MediaProtos.Image.newBuilder().setUri(image.uri);
            if (image.title != null) {
                out.setTitle(image.title);
            }
            if (image.width != null) {
                out.setWidth(image.width);
            }
            if (image.height != null) {
                out.setHeight(image.height);
            }
            if (image.size != null) {
                out.setSize(MediaProtos.Image.Size.valueOf(image.size.name()));
            }
            content.addImage(out);
        }
        Media media = value.media;
        MediaProtos.Media.Builder out = MediaProtos.Media.newBuilder().setUri(media.uri);
        if (media.title != null) {
            out.setTitle(media.title);
        }
        if (media.width != null) {
            out.setWidth(media.width);
        }
        if (media.height != null) {
            out.setHeight(media.height);
        }
        if (media.format != null) {
            out.setFormat(media.format);
        }
        if (media.duration != null) {
            out.setDuration(media.duration);
        }
        if (media.size != null) {
            out.setSize(media.size);
        }
        if (media.bitrate != null) {
            out.setBitrate(media.bitrate);
        }
        for (String person : media.persons) {
            out.addPerson(person);
        }
        if (media.player != null) {
            out.setPlayer(MediaProtos.Media.Player.valueOf(media.player.name()));
        }
        if (media.copyright != null) {
            out.setCopyright(media.copyright);
        }
        return content.setMedia(out).build();
    }
}
