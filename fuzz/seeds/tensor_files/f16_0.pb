
*ÅLBt