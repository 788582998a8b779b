package serialization.now;

import java.util.ArrayList;

import org.apache.fory.config.CompatibleMode;
import org.apache.fory.config.Language;

import serialization.model.Image;
import serialization.model.Media;
import serialization.model.MediaContent;

/**
 * Apache Fory (the former Fury) in its Java mode with registered classes and its generated serializers, in
 * compatible mode (its default, which is what the bare builder gives: same bytes): every message carries the
 * metadata of its classes' fields, so a reader with other fields can still read it.
 */
public class ForyCompatible extends Pojo {
    private final org.apache.fory.Fory fory;

    public ForyCompatible() {
        this(CompatibleMode.COMPATIBLE);
    }

    ForyCompatible(CompatibleMode mode) {
        fory = org.apache.fory.Fory.builder().withLanguage(Language.JAVA).requireClassRegistration(true)
                .withCompatibleMode(mode).build();
        fory.register(MediaContent.class);
        fory.register(Media.class);
        fory.register(Image.class);
        fory.register(ArrayList.class);
        fory.register(Media.Player.class);
        fory.register(Image.Size.class);
    }

    @Override
    protected byte[] encode(MediaContent object) {
        return fory.serialize(object);
    }

    @Override
    protected MediaContent decode(byte[] bytes) {
        return (MediaContent) fory.deserialize(bytes);
    }
}
