package serialization.now;

import java.util.ArrayList;

import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;

import serialization.model.Image;
import serialization.model.Media;
import serialization.model.MediaContent;

/**
 * Kryo 5 with its defaults (registration required, FieldSerializer, no references), the classes registered,
 * one reused Output. {@link KryoUnregistered} is the same without registration.
 */
public class Kryo extends Pojo {
    private final com.esotericsoftware.kryo.Kryo kryo = new com.esotericsoftware.kryo.Kryo();
    private final Output output = new Output(4096, -1);
    private final Input input = new Input();

    public Kryo() {
        this(true);
    }

    Kryo(boolean registered) {
        if (!registered) {
            kryo.setRegistrationRequired(false);
            return;
        }
        kryo.register(MediaContent.class);
        kryo.register(Media.class);
        kryo.register(Image.class);
        kryo.register(ArrayList.class);
        kryo.register(Media.Player.class);
        kryo.register(Image.Size.class);
    }

    @Override
    protected byte[] encode(MediaContent object) {
        output.reset();
        kryo.writeObject(output, object);
        return output.toBytes();
    }

    @Override
    protected MediaContent decode(byte[] bytes) {
        input.setBuffer(bytes);
        return kryo.readObject(input, MediaContent.class);
    }
}
