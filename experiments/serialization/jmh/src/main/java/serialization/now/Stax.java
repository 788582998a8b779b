package serialization.now;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;

import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.XMLStreamWriter;

import serialization.model.Image;
import serialization.model.Media;
import serialization.model.MediaContent;

/**
 * XML through StAX with 2008's two-character tags (mc, md, im, pl, ul, tl, wd, hg, fr, dr, sz, br, pr; cr
 * for the copyright 2008 left out). Unlike 2008's StaxSerializer it writes every person and image and
 * the copyright, omits unset fields, and declares the encoding it writes (UTF-8; 2008 declared
 * ISO-8859-1 and wrote UTF-8). The factories are made once (2008 looked them up on every call).
 */
abstract class Stax extends Pojo {
    private final XMLInputFactory inputs;
    private final XMLOutputFactory outputs;

    Stax(XMLInputFactory inputs, XMLOutputFactory outputs) {
        this.inputs = inputs;
        this.outputs = outputs;
    }

    @Override
    protected byte[] encode(MediaContent content) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        XMLStreamWriter writer = outputs.createXMLStreamWriter(out, "UTF-8");
        writer.writeStartDocument("UTF-8", "1.0");
        writer.writeStartElement("mc");
        Media m = content.media;
        writer.writeStartElement("md");
        element(writer, "pl", m.player == null ? null : m.player.name());
        element(writer, "ul", m.uri);
        element(writer, "tl", m.title);
        element(writer, "wd", m.width == null ? null : m.width.toString());
        element(writer, "hg", m.height == null ? null : m.height.toString());
        element(writer, "fr", m.format);
        element(writer, "dr", m.duration == null ? null : m.duration.toString());
        element(writer, "sz", m.size == null ? null : m.size.toString());
        element(writer, "br", m.bitrate == null ? null : m.bitrate.toString());
        for (String person : m.persons) {
            element(writer, "pr", person);
        }
        element(writer, "cr", m.copyright);
        writer.writeEndElement();
        for (Image i : content.images) {
            writer.writeStartElement("im");
            element(writer, "ul", i.uri);
            element(writer, "tl", i.title);
            element(writer, "wd", i.width == null ? null : i.width.toString());
            element(writer, "hg", i.height == null ? null : i.height.toString());
            element(writer, "sz", i.size == null ? null : i.size.name());
            writer.writeEndElement();
        }
        writer.writeEndElement();
        writer.writeEndDocument();
        writer.close();
        return out.toByteArray();
    }

    private static void element(XMLStreamWriter writer, String tag, String text) throws Exception {
        if (text != null) {
            writer.writeStartElement(tag);
            writer.writeCharacters(text);
            writer.writeEndElement();
        }
    }

    @Override
    protected MediaContent decode(byte[] bytes) throws Exception {
        XMLStreamReader reader = inputs.createXMLStreamReader(new ByteArrayInputStream(bytes));
        MediaContent content = new MediaContent(null, new ArrayList<>());
        reader.nextTag(); // <mc>
        while (reader.nextTag() == XMLStreamConstants.START_ELEMENT) {
            if (reader.getLocalName().equals("md")) {
                content.media = media(reader);
            } else {
                content.images.add(image(reader));
            }
        }
        reader.close();
        return content;
    }

    private static Media media(XMLStreamReader reader) throws Exception {
        Media m = new Media();
        m.persons = new ArrayList<>();
        while (reader.nextTag() == XMLStreamConstants.START_ELEMENT) {
            String tag = reader.getLocalName();
            String text = reader.getElementText();
            switch (tag) {
                case "pl": m.player = Media.Player.valueOf(text); break;
                case "ul": m.uri = text; break;
                case "tl": m.title = text; break;
                case "wd": m.width = Integer.valueOf(text); break;
                case "hg": m.height = Integer.valueOf(text); break;
                case "fr": m.format = text; break;
                case "dr": m.duration = Long.valueOf(text); break;
                case "sz": m.size = Long.valueOf(text); break;
                case "br": m.bitrate = Integer.valueOf(text); break;
                case "pr": m.persons.add(text); break;
                case "cr": m.copyright = text; break;
                default: throw new IllegalArgumentException("unknown media tag " + tag);
            }
        }
        return m;
    }

    private static Image image(XMLStreamReader reader) throws Exception {
        Image i = new Image();
        while (reader.nextTag() == XMLStreamConstants.START_ELEMENT) {
            String tag = reader.getLocalName();
            String text = reader.getElementText();
            switch (tag) {
                case "ul": i.uri = text; break;
                case "tl": i.title = text; break;
                case "wd": i.width = Integer.valueOf(text); break;
                case "hg": i.height = Integer.valueOf(text); break;
                case "sz": i.size = Image.Size.valueOf(text); break;
                default: throw new IllegalArgumentException("unknown image tag " + tag);
            }
        }
        return i;
    }
}
