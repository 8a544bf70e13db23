"""The model families of testdata/zoo: torchvision's quantizable classes in
float mode, cut down to small test models, and MODELS, the list built."""
import torch.nn as nn
from torchvision.models import quantization as tq
from torchvision.models.quantization import inception as tq_inception
from torchvision.models.quantization import resnet as tq_resnet

NUM_CLASSES = 100


def mobilenet_v3_large():
    return tq.mobilenet_v3_large(weights=None, quantize=False, width_mult=0.5, num_classes=NUM_CLASSES)


def inception_v3(divisor=4):
    # Inception3's channel counts are hard-coded in its blocks; every block
    # builds its convolutions through QuantizableBasicConv2d, so a subclass
    # swapped in while the network is built divides them all (all of
    # Inception-v3's counts are multiples of 4; the 3 input channels stay).
    base = tq_inception.QuantizableBasicConv2d

    class SlimBasicConv2d(base):
        def __init__(self, cin, cout, **kwargs):
            super().__init__(cin if cin == 3 else cin // divisor, cout // divisor, **kwargs)

    tq_inception.QuantizableBasicConv2d = SlimBasicConv2d
    try:
        model = tq_inception.QuantizableInception3(num_classes=NUM_CLASSES, aux_logits=False, init_weights=True)
    finally:
        tq_inception.QuantizableBasicConv2d = base
    model.Mixed_7c = nn.Identity()  # the last InceptionE (the largest block): keeps the file under 1.5 MB
    model.fc = nn.Linear(2048 // divisor, NUM_CLASSES)
    return model


def shufflenet_v2():
    return tq.shufflenet_v2_x0_5(weights=None, quantize=False, num_classes=NUM_CLASSES)


def resnext_block():
    # ResNeXt-50 32x4d's stem, layer1 cut to two bottlenecks, layer2 to one.
    model = tq_resnet.QuantizableResNet(tq_resnet.QuantizableBottleneck, [2, 1, 1, 1], groups=32,
                                        width_per_group=4, num_classes=NUM_CLASSES)
    model.layer3 = nn.Identity()
    model.layer4 = nn.Identity()
    model.fc = nn.Linear(512, NUM_CLASSES)
    return model


MODELS = [  # name, builder, input shape, description for README.md
    ("mobilenet_v3_large", mobilenet_v3_large, (1, 3, 112, 112), "MobileNetV3-Large, width_mult=0.5"),
    ("inception_v3", inception_v3, (1, 3, 107, 107),
     "Inception-v3, channels / 4, without its last block Mixed_7c"),
    ("shufflenet_v2", shufflenet_v2, (1, 3, 112, 112), "ShuffleNetV2 x0.5"),
    ("resnext_block", resnext_block, (1, 3, 96, 96),
     "ResNeXt-50 32x4d's stem + 3 bottlenecks (64->256 x2, 256->512 strided)"),
]
