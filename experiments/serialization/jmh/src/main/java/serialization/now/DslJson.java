package serialization.now;

import com.dslplatform.json.runtime.Settings;

import serialization.model.MediaContent;

/** JSON with dsl-json 2 and its runtime analysis of the classes (no annotation processor), a reused writer. */
public class DslJson extends Pojo {
    private final com.dslplatform.json.DslJson<Object> json =
            new com.dslplatform.json.DslJson<>(Settings.withRuntime().includeServiceLoader());
    private final com.dslplatform.json.JsonWriter writer = json.newWriter();

    @Override
    protected byte[] encode(MediaContent object) throws Exception {
        writer.reset();
        json.serialize(writer, MediaContent.class, object);
        return writer.toByteArray();
    }

    @Override
    protected MediaContent decode(byte[] bytes) throws Exception {
        return json.deserialize(MediaContent.class, bytes, bytes.length);
    }
}
