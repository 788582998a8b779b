package serialization.faults;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;

import org.apache.thrift.protocol.TBinaryProtocol;

import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamWriter;

import serialization.model.Image;
import serialization.model.Media;
import serialization.model.MediaContent;
import serialization.model.Values;
import serialization.now.StaxJdk;
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
                "as 2008's classes (serializers.java.*)", java(serializers.java.MediaContent.of(value, false)).length);
        line("2008's classes, each string its own object", java(serializers.java.MediaContent.of(value, false)).length,
                "and 2008's literals (equal strings one object)", java(serializers.java.MediaContent.of(value, true)).length);

        line("XML, StAX (JDK), unset fields left out, UTF-8", new StaxJdk().bytesOf(value).length,
                "as 2008 wrote it (0 for unset, ISO-8859-1)", stax2008(value).length);
    }

    /**
     * The 2008 value as 2008's StaxSerializer wrote it: every int and long through String.valueOf (an unset
     * one as "0"), the two persons and two images it wrote by index, no copyright, and an ISO-8859-1
     * declaration. The JDK's StAX writer stands in for the RI 1.2.0.
     */
    static byte[] stax2008(MediaContent value) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        XMLStreamWriter writer = XMLOutputFactory.newDefaultFactory().createXMLStreamWriter(out, "ISO-8859-1");
        writer.writeStartDocument("ISO-8859-1", "1.0");
        writer.writeStartElement("mc");
        Media m = value.media;
        writer.writeStartElement("md");
        element(writer, "pl", m.player.name());
        element(writer, "ul", m.uri);
        element(writer, "tl", m.title);
        element(writer, "wd", String.valueOf(m.width == null ? 0 : m.width));
        element(writer, "hg", String.valueOf(m.height == null ? 0 : m.height));
        element(writer, "fr", m.format);
        element(writer, "dr", String.valueOf(m.duration == null ? 0 : m.duration));
        element(writer, "sz", String.valueOf(m.size == null ? 0 : m.size));
        element(writer, "br", String.valueOf(m.bitrate == null ? 0 : m.bitrate));
        element(writer, "pr", m.persons.get(0));
        element(writer, "pr", m.persons.get(1));
        writer.writeEndElement();
        for (Image i : value.images.subList(0, 2)) {
            writer.writeStartElement("im");
            element(writer, "ul", i.uri);
            element(writer, "tl", i.title);
            element(writer, "wd", String.valueOf(i.width == null ? 0 : i.width));
            element(writer, "hg", String.valueOf(i.height == null ? 0 : i.height));
            element(writer, "sz", String.valueOf(i.size));
            writer.writeEndElement();
        }
        writer.writeEndElement();
        writer.writeEndDocument();
        writer.close();
        return out.toByteArray();
    }

    private static void element(XMLStreamWriter writer, String name, String text) throws Exception {
        writer.writeStartElement(name);
        writer.writeCharacters(text);
        writer.writeEndElement();
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
