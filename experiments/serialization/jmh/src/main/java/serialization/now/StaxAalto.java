package serialization.now;

/** StAX with Aalto XML. */
public class StaxAalto extends Stax {
    public StaxAalto() {
        super(new com.fasterxml.aalto.stax.InputFactoryImpl(), new com.fasterxml.aalto.stax.OutputFactoryImpl());
    }
}
