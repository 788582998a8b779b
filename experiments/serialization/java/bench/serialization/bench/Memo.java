package serialization.bench;

import java.lang.reflect.Field;

/**
 * What protobuf's messages remember from being serialized: each message memoizes its serialized size
 * (protobuf-java 2.5's generated SPEED code in memoizedSerializedSize, its reflective CODE_SIZE code and
 * 4.x in memoizedSize; -1 until computed). Read by reflection, never in a timed loop: the tests use it to
 * show that the serialize arms get messages that were never serialized.
 */
public final class Memo {
    private static final String[] FIELDS = {"memoizedSerializedSize", "memoizedSize"};

    private Memo() {
    }

    /** null if no memoized size is set on the message or its submessages' classes, else what is set. */
    public static String of(Object message) {
        for (Class<?> type = message.getClass(); type != null; type = type.getSuperclass()) {
            for (String name : FIELDS) {
                try {
                    Field field = type.getDeclaredField(name);
                    if (field.getType() != int.class) {
                        continue;
                    }
                    field.setAccessible(true);
                    int size = field.getInt(message);
                    if (size != -1) {
                        return type.getSimpleName() + "." + name + " = " + size;
                    }
                } catch (NoSuchFieldException absent) {
                    // not declared at this level
                } catch (ReflectiveOperationException | RuntimeException error) {
                    return "cannot read " + type.getName() + "." + name + ": " + error;
                }
            }
        }
        return null;
    }

    /** Whether any of the fields is declared somewhere in the message's classes (the check can see anything). */
    public static boolean visible(Object message) {
        for (Class<?> type = message.getClass(); type != null; type = type.getSuperclass()) {
            for (String name : FIELDS) {
                try {
                    type.getDeclaredField(name);
                    return true;
                } catch (NoSuchFieldException absent) {
                    // next
                }
            }
        }
        return false;
    }
}
