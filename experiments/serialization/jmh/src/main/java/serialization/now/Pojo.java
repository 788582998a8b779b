package serialization.now;

import org.openjdk.jmh.infra.Blackhole;

import serialization.bench.Bench;
import serialization.bench.Touch;
import serialization.model.MediaContent;

/** A serializer of the plain Java objects: create is a deep copy, touch reads the public fields. */
abstract class Pojo extends Bench<MediaContent> {
    @Override
    protected MediaContent build(MediaContent value) {
        return Touch.copy(value);
    }

    @Override
    protected void touch(MediaContent object, Blackhole blackhole) {
        Touch.value(object, blackhole);
    }

    @Override
    protected MediaContent toValue(MediaContent object) {
        return object;
    }
}
