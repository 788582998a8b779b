package versus.rpc;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import serialization.model.MediaContent;
import serialization.model.Values;
import serialization.protobuf.MediaProtos;
import serialization.protobuf.ProtobufValues;

/**
 * The serialization experiment's values (its java/model loader) and their messages of its media.proto (its
 * java/protobuf builder code), compiled against protobuf-java 2.5.0 in the 2008 project and 4.x in today's.
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

    /** A freshly built message of the value (the serialization experiment's builder code), as the 2008 code built one per call. */
    public static MediaProtos.MediaContent message(MediaContent value) {
        return ProtobufValues.fromValue(value);
    }
}
