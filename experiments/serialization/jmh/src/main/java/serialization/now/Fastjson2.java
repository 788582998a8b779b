package serialization.now;

import com.alibaba.fastjson2.JSON;

import serialization.model.MediaContent;

/** JSON with fastjson2's defaults (UTF-8 bytes straight from the object, nulls left out). */
public class Fastjson2 extends Pojo {
    @Override
    protected byte[] encode(MediaContent object) {
        return JSON.toJSONBytes(object);
    }

    @Override
    protected MediaContent decode(byte[] bytes) {
        return JSON.parseObject(bytes, MediaContent.class);
    }
}
