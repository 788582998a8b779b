package serialization.now;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.util.ClassSecurityValidator;
import org.openjdk.jmh.infra.Blackhole;

import serialization.avro.Image;
import serialization.avro.Media;
import serialization.avro.MediaContent;
import serialization.avro.Player;
import serialization.avro.Size;
import serialization.bench.Bench;

/**
 * Avro binary with the specific classes avro-maven-plugin generates from schema/media.avsc (Java
 * Strings), a reused encoder and decoder; the bytes carry no schema, as in Avro's single-object use
 * without a header.
 */
public class Avro extends Bench<MediaContent> {
    static {
        // Avro 1.12 loads only trusted classes by name: trust the generated ones besides its defaults.
        ClassSecurityValidator.setGlobal(ClassSecurityValidator.composite(ClassSecurityValidator.DEFAULT,
                ClassSecurityValidator.builder().add(MediaContent.class).add(Media.class).add(Image.class)
                        .add(Player.class).add(Size.class).build()));
    }

    private final SpecificDatumWriter<MediaContent> writer = new SpecificDatumWriter<>(MediaContent.class);
    private final SpecificDatumReader<MediaContent> reader = new SpecificDatumReader<>(MediaContent.class);
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private BinaryEncoder encoder;
    private BinaryDecoder decoder;

    @Override
    protected MediaContent build(serialization.model.MediaContent value) {
        serialization.model.Media m = value.media;
        List<Image> images = new ArrayList<>(value.images.size());
        for (serialization.model.Image i : value.images) {
            images.add(new Image(i.uri, i.title, i.width, i.height, i.size == null ? null : Size.valueOf(i.size.name())));
        }
        return new MediaContent(new Media(m.uri, m.title, m.width, m.height, m.format, m.duration, m.size, m.bitrate,
                new ArrayList<>(m.persons), m.player == null ? null : Player.valueOf(m.player.name()), m.copyright), images);
    }

    @Override
    protected byte[] encode(MediaContent object) throws Exception {
        buffer.reset();
        encoder = EncoderFactory.get().binaryEncoder(buffer, encoder);
        writer.write(object, encoder);
        encoder.flush();
        return buffer.toByteArray();
    }

    @Override
    protected MediaContent decode(byte[] bytes) throws Exception {
        decoder = DecoderFactory.get().binaryDecoder(bytes, decoder);
        return reader.read(null, decoder);
    }

    @Override
    protected void touch(MediaContent content, Blackhole bh) {
        Media m = content.getMedia();
        bh.consume(m.getUri());
        bh.consume(m.getTitle());
        bh.consume(m.getWidth());
        bh.consume(m.getHeight());
        bh.consume(m.getFormat());
        bh.consume(m.getDuration());
        bh.consume(m.getSize());
        bh.consume(m.getBitrate());
        for (String person : m.getPersons()) {
            bh.consume(person);
        }
        bh.consume(m.getPlayer());
        bh.consume(m.getCopyright());
        for (Image i : content.getImages()) {
            bh.consume(i.getUri());
            bh.consume(i.getTitle());
            bh.consume(i.getWidth());
            bh.consume(i.getHeight());
            bh.consume(i.getSize());
        }
    }

    @Override
    protected serialization.model.MediaContent toValue(MediaContent content) {
        Media m = content.getMedia();
        List<serialization.model.Image> images = new ArrayList<>();
        for (Image i : content.getImages()) {
            images.add(new serialization.model.Image(i.getUri(), i.getTitle(), i.getWidth(), i.getHeight(),
                    i.getSize() == null ? null : serialization.model.Image.Size.valueOf(i.getSize().name())));
        }
        return new serialization.model.MediaContent(new serialization.model.Media(m.getUri(), m.getTitle(), m.getWidth(),
                m.getHeight(), m.getFormat(), m.getDuration(), m.getSize(), m.getBitrate(), new ArrayList<>(m.getPersons()),
                m.getPlayer() == null ? null : serialization.model.Media.Player.valueOf(m.getPlayer().name()),
                m.getCopyright()), images);
    }
}
