package serialization.thrift;

/** media.thrift's enum Player: JAVA = 0, FLASH = 1. */
public enum Player {
    JAVA(0), FLASH(1);

    private final int value;

    Player(int value) {
        this.value = value;
    }

    public int getValue() {
        return value;
    }

    /** null for a value this schema does not know, as Thrift's generated findByValue does. */
    public static Player findByValue(int value) {
        switch (value) {
            case 0: return JAVA;
            case 1: return FLASH;
            default: return null;
        }
    }
}
