package serialization.faults;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;

import org.apache.thrift.protocol.TBinaryProtocol;

import serialization.model.MediaContent;
import serialization.model.Values;
import serialization.scala.Model;
import serialization.thrift.ThriftCodec;

/**
 * Sizes that show where 2008's setup, not the libraries, made the figures (README, "What 2008 got
 * wrong"): each line is the bytes of the 2008 value as 2008's code built it, next to the same value
 * built right. No timing; run in experiments/serialization:
 * {@code java -cp jmh/target/benchmarks.jar serialization.faults.Faults2008}
 */
public final class Faults2008 {
    private Faults2008() {
    }

    public static void main(String[] args) throws Exception {
        MediaContent value = Values.named("2008");
        ThriftCodec thrift = new ThriftCodec(new TBinaryProtocol.Factory());
        serialization.thrift.MediaContent right = ThriftCodec.fromValue(value);
        serialization.thrift.MediaContent as2008 = ThriftCodec.fromValue(value);
        as2008.image.get(1).setWidth(-1).setHeight(-1);
        line("thrift binary, 2008 value", thrift.serialize(right).length,
                "with 2008's second image width = height = -1", thrift.serialize(as2008).length);

        serialization.scala.MediaContent scala = Model.fromValue(value);
        line("scala case classes, Java serialization", java(scala).length,
                "with 2008's empty person and image lists", java(Model.withEmptyLists(scala)).length);

        line("plain Java objects (boxed Integer/Long), Java serialization", java(value).length,
                "as 2008's classes (primitive int/long)", java(Pojo2008.of(value)).length);
    }

    private static byte[] java(Object object) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(object);
        }
        return bytes.toByteArray();
    }

    private static void line(String what, int size, String fault, int faultSize) {
        System.out.printf("%-62s %5d bytes | %-46s %5d bytes%n", what, size, fault, faultSize);
    }
}
