package versus.rpc;

import serialization.model.MediaContent;

/**
 * The service Spring's HttpInvoker exports: one call that sends a MediaContent and returns one, both as
 * Java-serialized objects (the serialization experiment's Serializable model). The 2008 post's Spring code
 * is not in its repository; this is the simplest service that makes its round trip.
 */
public interface MediaService {
    MediaContent exchange(MediaContent request);
}
