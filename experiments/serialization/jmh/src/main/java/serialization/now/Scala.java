package serialization.now;

import org.openjdk.jmh.infra.Blackhole;

import serialization.bench.Bench;
import serialization.model.MediaContent;
import serialization.scala.Model;

/** Scala 3 case classes (src/main/scala) through Java's built-in serialization, as 2008's Scala test did. */
public class Scala extends Bench<serialization.scala.MediaContent> {
    @Override
    protected serialization.scala.MediaContent build(MediaContent value) {
        return Model.fromValue(value);
    }

    @Override
    protected byte[] encode(serialization.scala.MediaContent object) throws Exception {
        return JavaSerial.write(object);
    }

    @Override
    protected serialization.scala.MediaContent decode(byte[] bytes) throws Exception {
        return (serialization.scala.MediaContent) JavaSerial.read(bytes);
    }

    @Override
    protected void touch(serialization.scala.MediaContent object, Blackhole blackhole) {
        Model.touch(object, blackhole);
    }

    @Override
    protected MediaContent toValue(serialization.scala.MediaContent object) {
        return Model.toValue(object);
    }
}
