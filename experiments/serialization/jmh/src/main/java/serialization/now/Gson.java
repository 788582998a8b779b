package serialization.now;

import java.nio.charset.StandardCharsets;

import serialization.model.MediaContent;

/** JSON with Gson's defaults (fields by reflection, nulls left out, enums by name), UTF-8 bytes. */
public class Gson extends Pojo {
    private final com.google.gson.Gson gson = new com.google.gson.Gson();

    @Override
    protected byte[] encode(MediaContent object) {
        return gson.toJson(object).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected MediaContent decode(byte[] bytes) {
        return gson.fromJson(new String(bytes, StandardCharsets.UTF_8), MediaContent.class);
    }
}
