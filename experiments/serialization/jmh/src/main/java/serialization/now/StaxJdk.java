package serialization.now;

import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLOutputFactory;

/** StAX with the JDK's own implementation (newDefaultFactory: never a library found on the class path). */
public class StaxJdk extends Stax {
    public StaxJdk() {
        super(XMLInputFactory.newDefaultFactory(), XMLOutputFactory.newDefaultFactory());
    }
}
